/* Shared by the fuzz targets (libFuzzer, TESSERA_FUZZ=ON) and their replay driver (every build): each target
 * writes the input where the reader expects a file, runs the reader, and checks what every reader promises
 * (docs/reliability.md): success, or TESS_ERR_INPUT with one non-empty line. Anything else aborts, which
 * libFuzzer reports as a crash; AddressSanitizer and UBSan catch the rest. */
#ifndef TESS_FUZZ_H
#define TESS_FUZZ_H

#include "tess_error.h"
#include <stddef.h>
#include <stdint.h>

/* The target's entry point (libFuzzer's name). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes data to `name` in a private scratch folder (created on first use, under TMPDIR, else /dev/shm, else /tmp) and returns
 * the path (static storage, valid until the next call with the same name). */
const char *tess_fuzz_file(const char *name, const void *data, size_t size);

/* The outcome of the last input, for the replay driver. */
extern tess_status tess_fuzz_status;
extern char tess_fuzz_message[sizeof(((tess_error_t *)0)->msg)];

/* Records the outcome; aborts (a finding) unless st is TESS_OK or TESS_ERR_INPUT with a one-line message
 * containing `must_name` (the file the message has to name; NULL: any). */
void tess_fuzz_check(tess_status st, const tess_error_t *err, const char *must_name);

#endif
