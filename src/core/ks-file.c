/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-file.c: reading the files a user names (see ks-file.h). */

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ks-file.h"

static gboolean
set_errno_error (const char  *path,
                 int          err,
                 GError     **error)
{
  GFileError code = g_file_error_from_errno (err);

  if (err == ENOENT)
    g_set_error (error, G_FILE_ERROR, code, _("%s does not exist"), path);
  else if (err == EACCES || err == EPERM)
    g_set_error (error, G_FILE_ERROR, code, _("%s cannot be read: permission denied"), path);
  else if (err == EISDIR)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR,
                 _("%s is a folder; open a .cu, .ptx, .json or listing file"), path);
  else
    g_set_error (error, G_FILE_ERROR, code, _("%s cannot be read: %s"), path, g_strerror (err));
  return FALSE;
}

gboolean
ks_file_check_input (const char  *path,
                     GError     **error)
{
  GStatBuf st;

  g_return_val_if_fail (path != NULL, FALSE);

  if (g_stat (path, &st) != 0)
    return set_errno_error (path, errno, error);
  if (S_ISDIR (st.st_mode))
    return set_errno_error (path, EISDIR, error);
  if (g_access (path, R_OK) != 0)
    return set_errno_error (path, errno, error);
  return TRUE;
}

/* A pipe or device: read to its end, within the bound */
static GBytes *
read_stream (const char  *path,
             GError     **error)
{
  g_autoptr(GByteArray) data = g_byte_array_new ();
  int fd = g_open (path, O_RDONLY, 0);

  if (fd < 0)
    {
      set_errno_error (path, errno, error);
      return NULL;
    }
  for (;;)
    {
      guint8 buf[65536];
      gssize n = read (fd, buf, sizeof buf);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int err = errno;

          close (fd);
          set_errno_error (path, err, error);
          return NULL;
        }
      if (n == 0)
        break;
      if (data->len + (gsize) n > KS_FILE_STREAM_MAX)
        {
          close (fd);
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC,
                       _("%s gives more than %u MiB (a pipe or a device, which has no size to "
                         "check first): save it to a file"), path, KS_FILE_STREAM_MAX >> 20);
          return NULL;
        }
      g_byte_array_append (data, buf, (guint) n);
    }
  close (fd);
  /* NUL-terminated past its length, as a mapping's text is not, but the
   * readers that take a string want */
  g_byte_array_append (data, (const guint8 *) "", 1);
  {
    gsize len = data->len - 1;
    guint8 *bytes = g_byte_array_free (g_steal_pointer (&data), FALSE);

    return g_bytes_new_take (bytes, len);
  }
}

GBytes *
ks_file_read (const char  *path,
              GError     **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  GStatBuf st;

  g_return_val_if_fail (path != NULL, NULL);

  if (!ks_file_check_input (path, error))
    return NULL;
  if (g_stat (path, &st) == 0 && !S_ISREG (st.st_mode))
    return read_stream (path, error);
  mapped = g_mapped_file_new (path, FALSE, NULL);
  if (mapped == NULL)
    /* (some file systems cannot map) */
    return read_stream (path, error);
  return g_mapped_file_get_bytes (mapped);
}

gboolean
ks_file_get_contents (const char  *path,
                      char       **contents,
                      gsize       *length,
                      GError     **error)
{
  g_autoptr(GBytes) bytes = NULL;
  gsize len = 0;
  const char *data;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (contents != NULL, FALSE);

  if (!ks_file_check_input (path, error))
    return FALSE;
  {
    GStatBuf st;

    /* A regular file: one read, no mapping to copy from */
    if (g_stat (path, &st) == 0 && S_ISREG (st.st_mode))
      {
        g_autoptr(GError) local = NULL;

        if (g_file_get_contents (path, contents, length, &local))
          return TRUE;
        g_propagate_error (error, g_steal_pointer (&local));
        return FALSE;
      }
  }
  bytes = read_stream (path, error);
  if (bytes == NULL)
    return FALSE;
  data = g_bytes_get_data (bytes, &len);
  *contents = g_memdup2 (data, len + 1);
  if (length != NULL)
    *length = len;
  return TRUE;
}

static gboolean
set_too_large_error (const char  *path,
                     GError     **error)
{
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC,
               _("%s is more than %u MiB, too large for a listing"),
               path, KS_FILE_STREAM_MAX >> 20);
  return FALSE;
}

gboolean
ks_file_get_text (const char  *path,
                  char       **contents,
                  gsize       *length,
                  GError     **error)
{
  g_autoptr(GByteArray) data = NULL;
  gboolean elf = FALSE;
  GStatBuf st;
  int fd;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (contents != NULL, FALSE);

  if (!ks_file_check_input (path, error))
    return FALSE;
  fd = g_open (path, O_RDONLY, 0);
  if (fd < 0)
    return set_errno_error (path, errno, error);
  if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode) && (guint64) st.st_size > KS_FILE_STREAM_MAX)
    {
      close (fd);
      return set_too_large_error (path, error);
    }
  data = g_byte_array_sized_new (S_ISREG (st.st_mode) ? (guint) st.st_size + 1 : 65536);
  for (;;)
    {
      guint8 buf[65536];
      gssize n = read (fd, buf, sizeof buf);
      const guint8 *nul;

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int err = errno;

          close (fd);
          return set_errno_error (path, err, error);
        }
      if (n == 0)
        break;
      if (data->len + (gsize) n > KS_FILE_STREAM_MAX)
        {
          close (fd);
          if (S_ISREG (st.st_mode))
            return set_too_large_error (path, error);
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC,
                       _("%s gives more than %u MiB (a pipe or a device, which has no size to "
                         "check first): save it to a file"), path, KS_FILE_STREAM_MAX >> 20);
          return FALSE;
        }
      if (data->len == 0)
        elf = n >= 4 && memcmp (buf, "\x7f" "ELF", 4) == 0;
      nul = elf ? NULL : memchr (buf, '\0', (size_t) n);
      if (nul != NULL)
        {
          g_byte_array_append (data, buf, (guint) (nul - buf + 1));
          break;
        }
      g_byte_array_append (data, buf, (guint) n);
    }
  close (fd);
  if (length != NULL)
    *length = data->len;
  g_byte_array_append (data, (const guint8 *) "", 1);
  *contents = (char *) g_byte_array_free (g_steal_pointer (&data), FALSE);
  return TRUE;
}

char *
ks_file_find_source (const char *ptx_path,
                     const char *file_entry)
{
  g_autofree char *dir = NULL, *base = NULL, *beside = NULL;

  g_return_val_if_fail (ptx_path != NULL && file_entry != NULL, NULL);

  dir = g_path_get_dirname (ptx_path);
  base = g_path_get_basename (file_entry);
  beside = g_build_filename (dir, base, NULL);
  if (g_file_test (beside, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&beside);
  if (g_path_is_absolute (file_entry) && g_file_test (file_entry, G_FILE_TEST_IS_REGULAR))
    return g_strdup (file_entry);
  return NULL;
}
