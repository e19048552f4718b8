import { useApp, useInput } from 'ink';
import { useRef, type Dispatch } from 'react';
import type { TuiAction, TuiState } from './tui-state.js';
import type { TuiSource } from './tui-source.js';

/** Binds the keys of the footer: q, arrows, r, R, p, /, s, ?. */
export function useKeys(
  source: TuiSource,
  state: TuiState,
  dispatch: Dispatch<TuiAction>,
  onQuit?: () => void,
): void {
  const { exit } = useApp();
  // Keys can arrive faster than the screen re-renders (a pasted filter): read the latest state
  // from a ref, and track filter editing synchronously.
  const latest = useRef(state);
  latest.current = state;
  const editing = useRef(state.editingFilter);

  useInput((input, key) => {
    const current = latest.current;
    if (editing.current) {
      if (key.return || key.escape) {
        editing.current = false;
        dispatch({ type: 'filter-end', keep: key.return });
      } else if (key.backspace || key.delete) dispatch({ type: 'filter-erase' });
      else if (input !== '' && !key.ctrl && !key.meta)
        dispatch({ type: 'filter-type', text: input });
      return;
    }
    if (input === 'q' || (key.ctrl && input === 'c')) {
      onQuit?.();
      exit();
    } else if (key.upArrow || input === 'k') dispatch({ type: 'move', by: -1 });
    else if (key.downArrow || input === 'j') dispatch({ type: 'move', by: 1 });
    else if (input === 's') dispatch({ type: 'sort' });
    else if (input === 'p') dispatch({ type: 'pause' });
    else if (input === '?' || (key.escape && current.help)) dispatch({ type: 'help' });
    else if (input === '/') {
      editing.current = true;
      dispatch({ type: 'filter-start' });
    } else if (input === 'r') {
      const bucket = current.buckets[current.selected];
      if (bucket !== undefined) {
        void source.reset(bucket.key).then(
          () => dispatch({ type: 'notice', text: `reset ${bucket.key}` }),
          (error: Error) => dispatch({ type: 'notice', text: `reset failed: ${error.message}` }),
        );
      }
    } else if (input === 'R') {
      void source.reset().then(
        () => dispatch({ type: 'notice', text: 'reset all buckets' }),
        (error: Error) => dispatch({ type: 'notice', text: `reset failed: ${error.message}` }),
      );
    }
  });
}
