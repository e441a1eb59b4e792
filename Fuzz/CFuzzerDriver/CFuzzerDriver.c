// Declarations only (include/CFuzzerDriver.h); libFuzzer defines the function when built with -sanitize=fuzzer.
#include "CFuzzerDriver.h"
