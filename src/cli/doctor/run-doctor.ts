import type { DoctorFlags } from './doctor-flags.js';
import { EXIT, type CliIO } from '../io.js';
import { colorsFor } from '../colors-for.js';
import { diagnose } from './diagnose.js';
import { formatDiagnosis } from './format-diagnosis.js';

/** Runs `uas doctor`: prints what it found; exit 0 when all is well, 1 otherwise. */
export async function runDoctor(flags: DoctorFlags, io: CliIO): Promise<number> {
  const diagnosis = await diagnose({ port: flags.port, env: io.env, from: import.meta.url });
  io.stdout.write(
    flags.json === true
      ? `${JSON.stringify(diagnosis, null, 2)}\n`
      : formatDiagnosis(diagnosis, colorsFor(io.stdout, io.env)),
  );
  return diagnosis.ok ? EXIT.ok : EXIT.failure;
}
