import { Box } from 'ink';
import { useReducer } from 'react';
import { BucketTable, emptyText } from './bucket-table.js';
import { Footer, Help } from './footer.js';
import { Header } from './header.js';
import { LatestCode } from './latest-code.js';
import { RecentRequests } from './recent-requests.js';
import { screenLayout } from './screen-layout.js';
import { initialState, reduce } from './tui-state.js';
import type { TuiSource } from './tui-source.js';
import { useBucketPoll } from './use-bucket-poll.js';
import { useFeed } from './use-feed.js';
import { useKeys } from './use-keys.js';
import { useTerminalSize } from './use-terminal-size.js';
import { useTick } from './use-tick.js';

/** Lines of the header (title and connection, then the rates) and of the footer. */
const HEADER_LINES = 2;
const FOOTER_LINES = 1;

/** Props of {@link App}: everything it shows comes from the source. */
export interface AppProps {
  source: TuiSource;
  /** Header title, such as "uas top". */
  title: string;
  /** A fixed size instead of the terminal's (tests). */
  size?: { columns: number; rows: number };
  /** Called before the app exits on `q`. */
  onQuit?: () => void;
}

/** The live screen of buckets and requests. Takes props only; side effects live in hooks. */
export function App({ source, title, size, onQuit }: AppProps) {
  const [state, dispatch] = useReducer(reduce, undefined, initialState);
  const { columns, rows, unsized } = useTerminalSize(size);
  const codeLines = state.code === undefined ? 0 : 1;
  const { pollRows, bucketRows, recentRows, gaps } = screenLayout(
    rows,
    state.buckets.length,
    state.help,
    codeLines,
  );
  useFeed(source, dispatch);
  useTick(source.clock, dispatch);
  useBucketPoll(source, dispatch, { sort: state.sort, filter: state.filter, rows: pollRows });
  useKeys(source, state, dispatch, onQuit);
  const keys = { canReset: source.reset !== undefined, holdsRun: source.hold !== undefined };
  return (
    // Sized by ink to the terminal (a fixed size only in tests, and 80 columns on a terminal that
    // reports none): a frame drawn as the terminal shrinks, before the new size reaches the state,
    // then never runs wider than the screen.
    <Box flexDirection="column" width={size?.columns ?? (unsized === true ? columns : undefined)}>
      <Header state={state} label={source.label} title={title} columns={columns} />
      {state.code === undefined ? null : <LatestCode code={state.code} />}
      {state.help ? (
        // The help is taller than the table it stands for: what does not fit between the header
        // and the footer (the recent requests first, then the help's last lines) is left out,
        // where it would push the header off the screen.
        <Box
          flexDirection="column"
          height={Math.max(0, rows - HEADER_LINES - codeLines - FOOTER_LINES - 1)}
          overflow="hidden"
        >
          <Box marginTop={gaps ? 1 : 0} flexShrink={0}>
            <Help keys={keys} />
          </Box>
          {recentRows === 0 ? null : (
            <Box marginTop={gaps ? 1 : 0} flexShrink={0}>
              <RecentRequests records={state.recent} rows={recentRows} columns={columns} />
            </Box>
          )}
        </Box>
      ) : (
        <>
          <Box marginTop={gaps ? 1 : 0}>
            <BucketTable
              buckets={state.buckets}
              selected={state.selected}
              rows={bucketRows}
              columns={columns}
              empty={emptyText(state)}
            />
          </Box>
          {recentRows === 0 ? null : (
            <Box marginTop={gaps ? 1 : 0}>
              <RecentRequests records={state.recent} rows={recentRows} columns={columns} />
            </Box>
          )}
        </>
      )}
      <Footer state={state} keys={keys} />
    </Box>
  );
}
