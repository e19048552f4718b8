import { readLossMarker, type RecordingLoss } from '../../check/recording-loss.js';
import { CliError, EXIT } from '../io.js';

/** The loss markers of a recording, gathered as its lines are read. */
export interface LossTally {
  readonly losses: RecordingLoss[];
  /**
   * Whether a parsed line is a loss marker (kept in {@link losses}): then it is no request
   * record. A line that claims to be a marker but does not fit is a usage error naming it.
   */
  take(value: unknown, path: string, where: string): boolean;
}

/** Creates an empty {@link LossTally}. */
export function createLossTally(): LossTally {
  const losses: RecordingLoss[] = [];
  return {
    losses,
    take(value, path, where) {
      const read = readLossMarker(value);
      if (read === undefined) return false;
      if (typeof read === 'string')
        throw new CliError(`recording ${path}, ${where}: not a loss marker (${read})`, EXIT.usage);
      losses.push(read);
      return true;
    },
  };
}
