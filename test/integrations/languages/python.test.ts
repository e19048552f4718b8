import { describeLanguage, findPython } from './language-check.js';

// fixtures/integrations/python: requests with urllib3's Retry, tested with pytest. The wrong
// backend sends no caller_id and resends every error status; urllib3's Retry, moreover, waits
// Retry-After alone, with no backoff or jitter on top (JitteredRetry in correct.py adds them).
const python = findPython();

describeLanguage('Python', {
  present: python !== undefined,
  folder: 'python',
  command: (variant) => [python!, '-m', 'pytest', '-q', `test_${variant}.py`],
  env: { PYTHONDONTWRITEBYTECODE: '1' },
  cases: [
    { variant: 'correct', chaos: 0, rules: [] },
    { variant: 'correct', chaos: 1, rules: [] },
    { variant: 'wrong', chaos: 0, rules: ['caller-id-missing', 'retry-on-client-error'] },
    {
      variant: 'wrong',
      chaos: 1,
      rules: ['caller-id-missing', 'retry-without-backoff', 'retry-without-jitter'],
    },
  ],
});
