import { requireTool } from '../../helpers/require-tool.js';
import { describeLanguage, goEnv, runs } from './language-check.js';

// fixtures/integrations/go: net/http and the standard library only, tested with go test (offline:
// no module to download). The wrong backend waits a fixed 500 ms, Retry-After unread, 5 attempts.
const present = requireTool('go', runs('go', ['version']), 'apt-get install golang-go');

describeLanguage('Go', {
  present,
  folder: 'go',
  command: (variant) => ['go', 'test', '-count=1', `./${variant}`],
  env: present ? goEnv() : {},
  cases: [
    { variant: 'correct', chaos: 0, rules: [] },
    { variant: 'correct', chaos: 1, rules: [] },
    {
      variant: 'wrong',
      chaos: 1,
      rules: ['retry-before-retry-after', 'retry-cap-exceeded', 'retry-without-jitter'],
    },
  ],
});
