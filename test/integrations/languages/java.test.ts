import { requireTool } from '../../helpers/require-tool.js';
import { describeLanguage, runs } from './language-check.js';

// fixtures/integrations/java: one file run as a single-file program on JDK 17 (its HttpClient).
// The wrong backend sends one caller_id for every shopper and backs off with no random part.
const present = requireTool(
  'java (JDK 17)',
  runs('java', ['-version']) && runs('javac', ['-version']),
  'apt-get install openjdk-17-jdk-headless',
);

describeLanguage('Java', {
  present,
  folder: 'java',
  command: (variant) => ['java', 'Checkout.java', variant],
  cases: [
    { variant: 'correct', chaos: 0, rules: [] },
    { variant: 'correct', chaos: 1, rules: [] },
    { variant: 'wrong', chaos: 1, rules: ['caller-id-shared', 'retry-without-jitter'] },
  ],
});
