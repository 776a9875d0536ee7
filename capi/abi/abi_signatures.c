/* Compiles capi/abi/advlock.abi against advlock.h: C refuses a redeclaration
   whose type differs, so a signature changed in the header but not in the list
   (or the other way round) fails the build. */
#include "advlock.h"

#include "advlock.abi"
