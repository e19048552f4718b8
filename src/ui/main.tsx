/** @jsxImportSource preact */
import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './style.css';
import { App } from './app.js';
import { startLive } from './live.js';

startLive();
const root = document.getElementById('app') as HTMLElement;
// The page's own "Loading…" line goes: the app takes its place.
root.textContent = '';
render(<App />, root);
