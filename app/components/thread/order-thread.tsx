import { getFormProps, useForm } from "@conform-to/react";
import { Form, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { SubmissionResult } from "@conform-to/react";
import { Field } from "~/components/field";
import { useTranslation } from "~/components/i18n/i18n-context";
import { dateTimeFormat } from "~/modules/i18n/intl";
import { MESSAGE_MAX, textParts } from "~/modules/messages/thread";
import { useBrowserCheck } from "~/modules/validation/browser";
import { replyFor } from "~/modules/validation/reply";
import { useThreadPolling } from "./use-thread-polling";
import type { ThreadMessage } from "~/modules/messages/thread.server";

/**
 * An order's thread (ADR 104), the same on both sides: the messages oldest first, each with its
 * author, time and text (web addresses as links, nothing else), the lab's notes drawn apart (a
 * dashed amber box with its words "only the lab sees this" — the clinic's page never receives one),
 * and the forms, plain posts that work without JavaScript.
 */

/** A message as the page shows it: the thread module's own shape (dates already strings). */
export type ThreadMessageView = ThreadMessage;

type Reply = SubmissionResult<string[]>;

const threadForms = () => import("~/modules/messages/thread");

export function MessageText({ body }: { body: string }) {
  return (
    <p className="thread-body">
      {textParts(body).map((part, index) =>
        part.href ? (
          <a key={index} href={part.href} target="_blank" rel="noopener noreferrer nofollow">
            {part.text}
          </a>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </p>
  );
}

function useWhen() {
  const { i18n } = useTranslation();
  const locale = i18n.language === "ru" ? "ru-RU" : i18n.language;
  return (at: string) => dateTimeFormat(locale, { dateStyle: "short", timeStyle: "short" }).format(new Date(at));
}

/** The list of messages; `viewer` says whose page it is (the clinic's says "you" and "the lab"). */
export function ThreadMessages({ messages, viewer, staff }: { messages: ThreadMessageView[]; viewer: "clinic" | "lab"; staff?: string[] }) {
  const { t } = useTranslation();
  const when = useWhen();
  useThreadPolling(messages.at(-1)?.id ?? null);
  if (messages.length === 0) return <p className="muted">{t("thread.empty")}</p>;
  const authorOf = (message: ThreadMessageView) =>
    viewer === "clinic" ? (message.side === "clinic" ? t("thread.you") : t("thread.lab")) : message.side === "clinic" ? t("thread.bo.clinic", { email: message.author }) : message.author;
  return (
    <ol className="thread" aria-label={t("thread.messages")}>
      {messages.map((message) => (
        <li key={message.id} id={`message-${message.id}`} className={`thread-message thread-${message.labOnly ? "note" : message.side}`}>
          <p className="thread-meta">
            {message.labOnly ? <strong className="thread-note-mark">{t("thread.bo.noteMark")}</strong> : null}
            <strong>{authorOf(message)}</strong> <time dateTime={message.at}>{when(message.at)}</time>
            {message.asks && viewer === "lab" ? <span className="badge">{t("thread.bo.question")}</span> : null}
          </p>
          <MessageText body={message.body} />
          {viewer === "lab" && staff ? <MessageTools message={message} staff={staff} /> : null}
        </li>
      ))}
    </ol>
  );
}

/** Staff: who the message is given to, and "resolved". */
function MessageTools({ message, staff }: { message: ThreadMessageView; staff: string[] }) {
  const { t } = useTranslation();
  const when = useWhen();
  const busy = useNavigation().state === "submitting";
  const choices = message.assignedTo && !staff.includes(message.assignedTo) ? [message.assignedTo, ...staff] : staff;
  return (
    <div className="thread-tools small">
      <Form method="post" className="inline-form">
        <input type="hidden" name="intent" value="assign" />
        <input type="hidden" name="message" value={message.id} />
        <label htmlFor={`assignee-${message.id}`}>{t("thread.bo.assignee")}</label>{" "}
        <select id={`assignee-${message.id}`} name="assignee" defaultValue={message.assignedTo ?? ""}>
          <option value="">{t("thread.bo.nobody")}</option>
          {choices.map((email) => (
            <option key={email} value={email}>
              {email}
            </option>
          ))}
        </select>{" "}
        <button type="submit" className="button button-small button-secondary" disabled={busy}>
          {t("thread.bo.assign")}
        </button>
      </Form>
      {message.resolvedAt ? (
        <span>{t("thread.bo.resolvedBy", { who: message.resolvedBy ?? "", when: when(message.resolvedAt) })}</span>
      ) : (
        <Form method="post" className="inline-form">
          <input type="hidden" name="intent" value="resolve" />
          <input type="hidden" name="message" value={message.id} />
          <button type="submit" className="button button-small button-secondary" disabled={busy}>
            {t("thread.bo.resolve")}
          </button>
        </Form>
      )}
    </div>
  );
}

/**
 * One form of the thread: a message to the other side (`intent` "message") or a lab note ("note").
 * A refusal comes back in place with what was typed.
 */
export function ThreadForm({ intent, reply, label, submit, asks }: { intent: "message" | "note"; reply: Reply | undefined; label: string; submit: string; asks?: boolean }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const own = replyFor(reply, { intent });
  // With JavaScript the message is sent in place: once its post is answered without a refusal, the
  // box is emptied for the next one (a refusal keeps what was typed, with its message).
  const element = useRef<HTMLFormElement>(null);
  const sending = useRef(false);
  const mine = navigation.formData?.get("intent") === intent;
  // What was typed is kept in this tab's storage until it is sent, so a reload or a lost page brings it back.
  const draftKey = `thread-draft:${useLocation().pathname}:${intent}`;
  useEffect(() => {
    const box = element.current?.elements.namedItem("body");
    const kept = readDraft(draftKey);
    if (box instanceof HTMLTextAreaElement && !box.value && kept) box.value = kept;
  }, [draftKey]);
  useEffect(() => {
    if (mine) sending.current = true;
    else if (navigation.state === "idle" && sending.current) {
      sending.current = false;
      if (!own) {
        element.current?.reset();
        writeDraft(draftKey, "");
      }
    }
  }, [mine, navigation.state, own, draftKey]);
  const keep = (event: { target: EventTarget }) => {
    if (event.target instanceof HTMLTextAreaElement && event.target.name === "body") writeDraft(draftKey, event.target.value);
  };
  const { onValidate, warm } = useBrowserCheck(threadForms, (forms) => (intent === "note" ? forms.labNoteSchema : asks ? forms.labMessageSchema : forms.clinicMessageSchema));
  const [form, fields] = useForm({ id: `thread-${intent}`, lastResult: own, onValidate, defaultValue: asks ? { asks: "on" } : undefined });
  return (
    <Form method="post" ref={element} className={`stack thread-form thread-form-${intent}`} {...getFormProps(form)} onFocus={warm} onInput={keep}>
      <input type="hidden" name="intent" value={intent} />
      <Field field={fields.body} id={`thread-${intent}-body`} label={label} hint="thread.hint" hintValues={{ max: String(MESSAGE_MAX) }} errorValues={{ max: String(MESSAGE_MAX) }} multiline required control={{ rows: 4 }} />
      {asks ? <Field field={fields.asks} id={`thread-${intent}-asks`} label="thread.bo.asks" type="checkbox" /> : null}
      <div>
        <button type="submit" className="button button-small" disabled={busy}>
          {t(submit)}
        </button>
      </div>
    </Form>
  );
}

/** This tab's kept text of a thread's form; storage may be off or full, and then nothing is kept. */
function readDraft(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeDraft(key: string, text: string) {
  try {
    if (text) window.sessionStorage.setItem(key, text);
    else window.sessionStorage.removeItem(key);
  } catch {
    // Nothing kept: the page still holds what was typed.
  }
}
