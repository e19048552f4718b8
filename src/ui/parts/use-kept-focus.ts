import { useEffect } from 'preact/hooks';

/**
 * Keeps the focus on the page when a live update takes away the element that had it (a row of
 * the inbox whose user was removed elsewhere, the request list's rows after a reset): it goes to
 * the nearest element around it that is still there and takes the focus (the request list, one
 * stop of the Tab key), else to the page's content, never to the body.
 */
export function useKeptFocus(): void {
  useEffect(() => {
    // The focused element and the elements around it, as they were when it took the focus: once
    // it is taken out, its own parents are gone with it.
    let around: Element[] = [];
    const onFocusIn = (event: FocusEvent) => {
      around = [];
      for (let at = event.target as Element | null; at !== null; at = at.parentElement)
        around.push(at);
    };
    // The focus given to nothing (a click on the page's background) forgets it: a row taken
    // away later had not the focus, and the focus stays where the user left it.
    // (Chrome says focusout when a focused element is taken out too: whether it is still on the
    // page is asked once that is done.)
    const onFocusOut = (event: FocusEvent) => {
      const left = event.target as Element;
      if (event.relatedTarget !== null) return;
      queueMicrotask(() => {
        if (left.isConnected && around[0] === left) around = [];
      });
    };
    const observer = new MutationObserver(() => {
      const [lost] = around;
      if (lost === undefined || lost.isConnected) return;
      const active = document.activeElement;
      if (active !== null && active !== document.body) return;
      const next =
        around.find((element) => element.isConnected && element.hasAttribute('tabindex')) ??
        document.getElementById('main');
      around = [];
      (next as HTMLElement | null)?.focus({ preventScroll: true });
    });
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', onFocusOut);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('focusout', onFocusOut);
      observer.disconnect();
    };
  }, []);
}
