#include "tess_summary.h"
#include "cpu_dist_xfer.h"
#include "tess_file.h"
#include "tess_forces.h"

/* JSON string with the characters JSON requires escaped. */
static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

tess_status tess_summary_write(const char *path, const tess_summary_t *s, tess_error_t *err)
{
    tess_file_t w;
    tess_status st = tess_file_begin(&w, path, err);
    if (st != TESS_OK)
        return st;
    FILE *f = w.f;
    fprintf(f, "{\n  \"tessera_version\": ");
    put_string(f, s->version);
    fprintf(f, ",\n  \"case\": ");
    put_string(f, s->case_name);
    fprintf(f, ",\n  \"case_file\": ");
    put_string(f, s->case_path);
    fprintf(f, ",\n  \"backend\": ");
    put_string(f, s->backend);
    fprintf(f, ",\n  \"device\": ");
    put_string(f, s->device);
    fprintf(f, ",\n  \"precision\": ");
    put_string(f, s->precision);
    fprintf(f, ",\n  \"pattern\": ");
    put_string(f, s->pattern);
    const double bpf = s->fluid_nodes > 0 ? (double)s->bytes_allocated / (double)s->fluid_nodes : 0.0;
    fprintf(f,
            ",\n  \"threads\": %d,\n  \"dims\": [%d, %d, %d],\n  \"nodes\": %lld,\n  \"fluid_nodes\": %lld,\n"
            "  \"tiles\": %lld,\n  \"eta_t\": %.6f,\n  \"first_step\": %ld,\n  \"last_step\": %ld,\n  \"steps\": %ld,\n"
            "  \"mlups\": %.4f,\n  \"wall_seconds\": %.6f,\n  \"bytes_allocated\": %zu,\n"
            "  \"bytes_per_fluid_node\": %.3f",
            s->threads, s->nx, s->ny, s->nz, s->nodes, s->fluid_nodes, s->tiles, s->eta_t, s->first_step, s->last_step,
            s->steps_run, s->mlups, s->wall_s, s->bytes_allocated, bpf);
    fprintf(f, ",\n  \"interrupted\": %s", s->interrupted ? "true" : "false");
    if (s->interrupted) {
        fprintf(f, ",\n  \"signal\": ");
        put_string(f, s->interrupted);
    }
    if (s->bodies && s->bodies->nbody && s->force) {
        /* The forces of the last monitor row (the last step always has one): docs/outputs.md. */
        fprintf(f, ",\n  \"bodies\": {");
        for (int b = 0; b < s->bodies->nbody; b++) {
            const double *F = s->force + 3 * b;
            fprintf(f, "%s\n    ", b ? "," : "");
            put_string(f, s->bodies->name[b]);
            fprintf(f, ": {\"force\": [%.15e, %.15e, %.15e]", F[0], F[1], F[2]);
            if (s->bodies->coefficients) {
                double cd, cl;
                tess_forces_coefficients(s->bodies, F, &cd, &cl);
                fprintf(f, ", \"cd\": %.15e, \"cl\": %.15e", cd, cl);
            }
            fprintf(f, "}");
        }
        fprintf(f, "\n  }");
    }
    if (s->units) {
        /* The conversion ([units], docs/case-format.md): enough to turn any lattice value back. */
        const tess_units_t *u = s->units;
        fprintf(f,
                ",\n  \"units\": {\"dx\": %.17g, \"dt\": %.17g, \"tau\": %.17g, \"density\": %.17g, \"viscosity\": %.17g,\n"
                "    \"velocity\": %.17g, \"lattice_velocity\": %.17g, \"mach\": %.17g, \"length\": %.17g, "
                "\"reynolds\": %.17g,\n    \"output\": \"%s\"}",
                u->dx, u->dt, u->tau, u->rho, u->nu, u->u_ref, u->u_lattice, u->mach, u->length, u->re,
                u->physical_output ? "physical" : "lattice");
    }
    if (s->field_files > 0)
        /* What writing the field files cost (docs/outputs.md): the data over the wall time, pieces or one file. */
        fprintf(f, ",\n  \"field_output\": {\"files\": %d, \"pieces\": %d, \"bytes\": %lld, \"seconds\": %.6f, "
                   "\"mb_per_s\": %.3f",
                s->field_files, s->field_pieces, s->field_bytes, s->field_seconds,
                s->field_seconds > 0 ? (double)s->field_bytes / s->field_seconds / 1e6 : 0.0);
    if (s->field_files) { /* pieces made by the ranks (docs/mpi.md): the time making their values too */
        if (s->field_values_seconds >= 0)
            fprintf(f, ", \"values_seconds\": %.6f", s->field_values_seconds);
        fprintf(f, "}");
    }
    if (s->nranks > 1 && s->ranks) {
        /* The distributed run (docs/mpi.md): the partition's balance and each rank's share and exchange. */
        const size_t vs = s->precision && s->precision[0] == 's' ? 4 : 8;
        /* How the halo messages travelled (backends/cpu/cpu_dist_xfer.h): every rank runs the same engine. */
        fprintf(f, ",\n  \"mpi\": {\"ranks\": %d, \"imbalance\": %.6f, \"transport\": \"%s\", \"per_rank\": [", s->nranks,
                s->imbalance, tess_dist_xfer_name(s->ranks[0].transport));
        for (int r = 0; r < s->nranks; r++) {
            const tess_halo_rank_t *k = &s->ranks[r];
            fprintf(f,
                    "%s\n    {\"rank\": %d, \"tiles\": %d, \"halo_tiles\": %d, \"neighbours\": %d, \"fluid_nodes\": %lld, "
                    "\"halo_populations\": %lld, \"halo_bytes_per_step\": %lld, \"steps\": %ld, \"step_seconds\": %.6f, "
                    "\"exchange_seconds\": %.6f, \"wait_seconds\": %.6f, \"mlups\": %.4f, \"peak_resident_mb\": %.1f, "
                    "\"binding\": \"%s\"}",
                    r ? "," : "", r, (int)k->tiles, (int)k->halo_tiles, k->neighbours, (long long)k->wet,
                    (long long)k->halo_slots, (long long)(k->halo_slots * (int64_t)vs), k->steps, k->step_s,
                    k->exchange_s, k->wait_s, k->step_s > 0 ? (double)k->wet * (double)k->steps / k->step_s / 1e6 : 0.0,
                    k->peak_bytes / 1e6, k->binding);
        }
        fprintf(f, "\n  ]}");
    }
    if (s->setup) {
        fprintf(f, ",\n  \"setup\": {\"seconds\": %.6f", tess_setup_total(s->setup));
        for (int i = 0; i < TESS_SETUP_STAGES; i++)
            fprintf(f, ", \"%s\": %.6f", tess_setup_stage_name(i), s->setup->seconds[i]);
        fprintf(f, ", \"host_peak_bytes\": %zu}", s->host_peak);
    }
    fprintf(f, "\n}\n");
    return tess_file_commit(&w, err);
}
