/** @jsxImportSource preact */
import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './style.css';
import { App } from './app.js';
import { listRequests, startLive } from './live.js';
import { listsRequests, route } from './route.js';

startLive();
listRequests(listsRequests(route.value.page));
const root = document.getElementById('app') as HTMLElement;
// The page's own "Loading…" line goes: the app takes its place.
root.textContent = '';
render(<App />, root);
