/**
 * What could not load or save, said in place with the specification's words (ADR 026): the one
 * shape of a failure beside a form's reply or in a page's section. `title` and `message` are text
 * keys; a value whose name ends in "Key" is a text of its own (a cause, `failureCause`), translated
 * first. Never an exception's own message.
 */
export interface Failure {
  title?: string;
  message: string;
  values?: Record<string, string>;
}
