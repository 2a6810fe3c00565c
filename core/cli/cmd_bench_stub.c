/* Placeholder until the lead's cmd_bench.c exists (delete this file then): weak, so the real one wins. */
#include "tess_cli.h"
#include <stdio.h>

__attribute__((weak)) int tess_cmd_bench(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "tessera bench: not implemented yet\n");
    return 2;
}
