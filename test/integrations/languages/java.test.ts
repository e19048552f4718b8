import { requireTool } from '../../helpers/require-tool.js';
import { describeLanguage, runs } from './language-check.js';
import { JAVA } from './language-suites.js';

// fixtures/integrations/java: one file run as a single-file program on JDK 17 (its HttpClient).
// The wrong backend sends one caller_id for every shopper and backs off with no random part.
const present = requireTool(
  'java (JDK 17)',
  runs('java', ['-version']) && runs('javac', ['-version']),
  'apt-get install openjdk-17-jdk-headless',
);

describeLanguage(JAVA, { present });
