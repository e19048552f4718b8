import { requireTool } from '../../helpers/require-tool.js';
import { describeLanguage, goEnv, runs } from './language-check.js';
import { GO } from './language-suites.js';

// fixtures/integrations/go: net/http and the standard library only, tested with go test (offline:
// no module to download). The wrong backend waits a fixed 500 ms, Retry-After unread, 5 attempts.
const present = requireTool('go', runs('go', ['version']), 'apt-get install golang-go');

describeLanguage(GO, { present, env: present ? goEnv() : {} });
