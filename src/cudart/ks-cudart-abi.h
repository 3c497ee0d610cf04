/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cudart-abi.h: the CUDA runtime's types as a program built with CUDA
 * 13 passes them (driver_types.h, vector_types.h, host_runtime.h of the
 * toolkit), declared here so that the stand-in builds without a toolkit.
 * Only the layout matters: sizes and offsets are checked below against the
 * figures of CUDA 13.0's headers (sizeof (cudaDeviceProp) is 1008), and
 * tests/test-record.c checks the properties a real program reads. */
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef int cudaError_t;

enum
{
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorSymbolNotFound = 500,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorAssert = 710,
  cudaErrorHostMemoryAlreadyRegistered = 712,
  cudaErrorHostMemoryNotRegistered = 713,
  cudaErrorHardwareStackError = 714,
  cudaErrorIllegalInstruction = 715,
  cudaErrorMisalignedAddress = 716,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999,
};

enum
{
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

typedef struct
{
  unsigned int x, y, z;
} dim3;

typedef struct ks_cudart_stream *cudaStream_t;
typedef struct ks_cudart_event *cudaEvent_t;
typedef struct ks_cudart_kernel *cudaKernel_t;
typedef struct ks_cudart_graph *cudaGraph_t;
typedef struct ks_cudart_graph_node *cudaGraphNode_t;
typedef struct ks_cudart_graph_exec *cudaGraphExec_t;
typedef void (*cudaHostFn_t) (void *data);

typedef struct
{
  char bytes[16];
} cudaUUID_t;

/* driver_types.h, struct cudaDeviceProp, CUDA 13.0 */
struct cudaDeviceProp
{
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int deviceNumaConfig;
  int deviceNumaId;
  int mpsEnabled;
  int hostNumaId;
  unsigned int gpuPciDeviceID;
  unsigned int gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
};

/* The figures CUDA 13.0's driver_types.h gives (offsetof with nvcc 13.0.88) */
_Static_assert (sizeof (struct cudaDeviceProp) == 1008, "cudaDeviceProp's size");
_Static_assert (offsetof (struct cudaDeviceProp, totalGlobalMem) == 288, "totalGlobalMem");
_Static_assert (offsetof (struct cudaDeviceProp, multiProcessorCount) == 384, "multiProcessorCount");
_Static_assert (offsetof (struct cudaDeviceProp, l2CacheSize) == 596, "l2CacheSize");
_Static_assert (offsetof (struct cudaDeviceProp, hostNumaMultinodeIpcSupported) == 780,
                "hostNumaMultinodeIpcSupported");

/* driver_types.h, enum cudaDeviceAttr (the values answered) */
enum
{
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxPitch = 11,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrTextureAlignment = 14,
  cudaDevAttrGpuOverlap = 15,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrKernelExecTimeout = 17,
  cudaDevAttrIntegrated = 18,
  cudaDevAttrCanMapHostMemory = 19,
  cudaDevAttrComputeMode = 20,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrEccEnabled = 32,
  cudaDevAttrPciBusId = 33,
  cudaDevAttrPciDeviceId = 34,
  cudaDevAttrTccDriver = 35,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrAsyncEngineCount = 40,
  cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrPciDomainId = 50,
  cudaDevAttrStreamPrioritiesSupported = 78,
  cudaDevAttrGlobalL1CacheSupported = 79,
  cudaDevAttrLocalL1CacheSupported = 80,
  cudaDevAttrIsMultiGpuBoard = 84,
  cudaDevAttrHostNativeAtomicSupported = 86,
  cudaDevAttrPageableMemoryAccess = 88,
  cudaDevAttrComputePreemptionSupported = 90,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrConcurrentManagedAccess = 89,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrReservedSharedMemoryPerBlock = 111,
};

/* driver_types.h, struct cudaFuncAttributes, CUDA 13.0 (144 bytes) */
struct cudaFuncAttributes
{
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};

_Static_assert (sizeof (struct cudaFuncAttributes) == 144, "cudaFuncAttributes' size");

/* cudaFuncAttributeMaxDynamicSharedMemorySize */
#define KS_CUDA_FUNC_ATTR_MAX_DYNAMIC_SHARED 8

/* ---- CUDA arrays, textures and surfaces (driver_types.h, texture_types.h,
 * surface_types.h of CUDA 13.0) ---- */

enum
{
  cudaErrorInvalidTexture = 18,
  cudaErrorInvalidChannelDescriptor = 20,
  cudaErrorInvalidSurface = 37,
};

enum cudaChannelFormatKind
{
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3,
};

struct cudaChannelFormatDesc
{
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};

/* A CUDA array is opaque to the program: the stand-in's handle is its
 * storage's device address */
typedef struct ks_cudart_array *cudaArray_t;
typedef const struct ks_cudart_array *cudaArray_const_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

#define cudaArrayDefault 0x00
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04
#define cudaArrayTextureGather 0x08

struct cudaExtent
{
  size_t width, height, depth;
};

struct cudaPos
{
  size_t x, y, z;
};

struct cudaPitchedPtr
{
  void *ptr;
  size_t pitch, xsize, ysize;
};

struct cudaMemcpy3DParms
{
  cudaArray_t srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent;
  int kind;
};

enum
{
  cudaResourceTypeArray = 0,
  cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3,
};

struct cudaResourceDesc
{
  int resType;
  union
  {
    struct { cudaArray_t array; } array;
    struct { void *mipmap; } mipmap;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct
    {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
    struct { int reserved[32]; } reserved;
  } res;
  unsigned int flags;
};

enum
{
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3,
};

struct cudaTextureDesc
{
  int addressMode[3];
  int filterMode;               /* cudaFilterModePoint 0, cudaFilterModeLinear 1 */
  int readMode;                 /* cudaReadModeElementType 0, cudaReadModeNormalizedFloat 1 */
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};

_Static_assert (sizeof (struct cudaChannelFormatDesc) == 20, "cudaChannelFormatDesc's size");
_Static_assert (sizeof (struct cudaResourceDesc) == 144, "cudaResourceDesc's size");
_Static_assert (offsetof (struct cudaResourceDesc, res) == 8, "cudaResourceDesc.res");
_Static_assert (offsetof (struct cudaResourceDesc, res.linear.sizeInBytes) == 40,
                "cudaResourceDesc.res.linear.sizeInBytes");
_Static_assert (offsetof (struct cudaResourceDesc, res.pitch2D.pitchInBytes) == 56,
                "cudaResourceDesc.res.pitch2D.pitchInBytes");
_Static_assert (offsetof (struct cudaResourceDesc, flags) == 136, "cudaResourceDesc.flags");
_Static_assert (sizeof (struct cudaTextureDesc) == 72, "cudaTextureDesc's size");
_Static_assert (offsetof (struct cudaTextureDesc, borderColor) == 24, "borderColor");
_Static_assert (offsetof (struct cudaTextureDesc, normalizedCoords) == 40, "normalizedCoords");
_Static_assert (sizeof (struct cudaMemcpy3DParms) == 160, "cudaMemcpy3DParms' size");
_Static_assert (offsetof (struct cudaMemcpy3DParms, dstArray) == 64, "dstArray");
_Static_assert (offsetof (struct cudaMemcpy3DParms, dstPos) == 72, "dstPos");
_Static_assert (offsetof (struct cudaMemcpy3DParms, dstPtr) == 96, "dstPtr");
_Static_assert (offsetof (struct cudaMemcpy3DParms, extent) == 128, "extent");
_Static_assert (offsetof (struct cudaMemcpy3DParms, kind) == 152, "kind");

/* ---- graphs (driver_types.h of CUDA 13.0) ---- */

enum
{
  cudaErrorIllegalState = 401,
  cudaErrorStreamCaptureUnsupported = 900,
  cudaErrorStreamCaptureInvalidated = 901,
  cudaErrorStreamCaptureUnmatched = 903,
  cudaErrorStreamCaptureImplicit = 906,
  cudaErrorGraphExecUpdateFailure = 910,
};

/* cudaGraphExecUpdate's result (enum cudaGraphExecUpdateResult) */
enum
{
  cudaGraphExecUpdateSuccess = 0,
  cudaGraphExecUpdateError = 1,
  cudaGraphExecUpdateErrorTopologyChanged = 2,
  cudaGraphExecUpdateErrorNodeTypeChanged = 3,
};

typedef struct
{
  int result;                   /* enum cudaGraphExecUpdateResult: an int's size */
  cudaGraphNode_t errorNode;
  cudaGraphNode_t errorFromNode;
} cudaGraphExecUpdateResultInfo;
_Static_assert (sizeof (cudaGraphExecUpdateResultInfo) == 24, "cudaGraphExecUpdateResultInfo");
_Static_assert (offsetof (cudaGraphExecUpdateResultInfo, errorNode) == 8, "errorNode");

enum
{
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2,
};

struct cudaKernelNodeParams
{
  void *func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned int sharedMemBytes;
  void **kernelParams;
  void **extra;
};

struct cudaMemsetParams
{
  void *dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
};

struct cudaHostNodeParams
{
  cudaHostFn_t fn;
  void *userData;
};

_Static_assert (sizeof (struct cudaKernelNodeParams) == 56, "cudaKernelNodeParams' size");
_Static_assert (offsetof (struct cudaKernelNodeParams, blockDim) == 20, "blockDim");
_Static_assert (offsetof (struct cudaKernelNodeParams, kernelParams) == 40, "kernelParams");
_Static_assert (sizeof (struct cudaMemsetParams) == 40, "cudaMemsetParams' size");
_Static_assert (offsetof (struct cudaMemsetParams, elementSize) == 20, "elementSize");
_Static_assert (sizeof (struct cudaHostNodeParams) == 16, "cudaHostNodeParams' size");
