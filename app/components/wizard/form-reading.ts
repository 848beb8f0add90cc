/** Reading the wizard's form in the browser: what was typed, which button sent it, what a refusal said. */

/** A refusal's first message of each field (the wizard says one per field); the form's own ("") apart. */
export function fieldMessages(error: Record<string, string[] | null> | null | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(error ?? {}).flatMap(([name, messages]): Array<[string, string]> => (name && messages?.[0] ? [[name, messages[0]]] : [])));
}

/** The button that sent a form: its intent, or "" (the server reads a missing intent the same way). */
export function submittedIntent(event: React.FormEvent<HTMLFormElement>): string {
  const submitter = (event.nativeEvent as SubmitEvent).submitter;
  return submitter instanceof HTMLButtonElement && submitter.name === "intent" ? submitter.value : "";
}

/** What the forward button follows as it is typed (customer side §2). */
export interface Typed {
  patientName: string;
  consent: boolean;
}

export function readTyped(form: HTMLFormElement): Typed {
  const field = (name: string) => form.elements.namedItem(name);
  const name = field("patient_name");
  const consent = field("consent");
  return {
    patientName: name instanceof HTMLInputElement ? name.value.trim() : "",
    consent: consent instanceof HTMLInputElement && consent.checked,
  };
}
