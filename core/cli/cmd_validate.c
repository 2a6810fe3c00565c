#include "tess_cli.h"
#include <stdio.h>

int tess_cmd_validate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "tessera validate: not implemented yet\n");
    return 2;
}
