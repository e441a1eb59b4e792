#include <stddef.h>
#include <stdint.h>

// libFuzzer's documented entry for programs that have their own main (https://llvm.org/docs/LibFuzzer.html,
// "Using libFuzzer as a library"): SwiftPM names an executable's entry point itself, so libFuzzer's main cannot be.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
