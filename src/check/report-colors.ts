/**
 * The styles the text report uses: chalk's functions fit (`chalk` itself can be passed), and
 * tests pass {@link NO_COLORS}.
 */
export interface ReportColors {
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const plain = (text: string) => text;

/** Styles that leave text as it is: plain text, as in the error of `assertCleanIntegration`. */
export const NO_COLORS: ReportColors = {
  red: plain,
  yellow: plain,
  green: plain,
  dim: plain,
  bold: plain,
};
