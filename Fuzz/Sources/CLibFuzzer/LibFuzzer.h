#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver, linked by -sanitize=fuzzer (compiler-rt declares it in no installed header): parses the
// flags in argv, runs `callback` on each input, returns the exit status.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
