import { Form, Link, useNavigate, useSubmit } from "@remix-run/react";
import { type ComponentProps, createContext, type MouseEvent, type FormEvent, type ReactNode, useContext } from "react";

/**
 * A list of many cards, each with its links and forms: inside `PlainNavigation`, `ListLink` and
 * `ListForm` are plain `<a>` and `<form>` elements, and one pair of handlers on the list does for
 * all of them what Remix's `<Link>` and `<Form>` do for each (a navigation or a submission without
 * reloading the page). Each `<Link>` and `<Form>` resolves its address with the route's matches on
 * every render; the dashboard's ten cards rendered about a hundred (ADR 081, "Pages fast when made").
 * Without JavaScript, and outside a `PlainNavigation`, they are what they always were.
 */

const Plain = createContext(false);

/** Whether a click on this link is the browser's to handle: a new tab, a download, another site, mail or phone. */
function browsersOwn(event: MouseEvent, anchor: HTMLAnchorElement) {
  return (
    event.button !== 0 ||
    event.metaKey ||
    event.altKey ||
    event.ctrlKey ||
    event.shiftKey ||
    (anchor.target && anchor.target !== "_self") ||
    anchor.hasAttribute("download") ||
    anchor.origin !== window.location.origin
  );
}

export function PlainNavigation({ className, children }: { className?: string; children: ReactNode }) {
  const navigate = useNavigate();
  const submit = useSubmit();
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (event.defaultPrevented) return;
    const anchor = (event.target as Element).closest?.("a[href]") as HTMLAnchorElement | null;
    if (!anchor || !event.currentTarget.contains(anchor) || browsersOwn(event, anchor)) return;
    event.preventDefault();
    navigate(anchor.pathname + anchor.search + anchor.hash);
  };
  const onSubmit = (event: FormEvent<HTMLDivElement>) => {
    if (event.defaultPrevented) return;
    const form = event.target as HTMLFormElement;
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | HTMLInputElement | null;
    event.preventDefault();
    // As <Form> does: the button that sent it (its name and value) and the form's method and action.
    const method = (submitter?.getAttribute("formmethod") ?? form.getAttribute("method") ?? "get").toLowerCase() as "get" | "post";
    submit(submitter ?? form, { method, action: submitter?.getAttribute("formaction") ?? form.getAttribute("action") ?? undefined });
  };
  return (
    // Both events bubble from the list's own links and forms; a keyboard's Enter on a link is a click.
    <div className={className} onClick={onClick} onSubmit={onSubmit}>
      <Plain.Provider value={true}>{children}</Plain.Provider>
    </div>
  );
}

/** A link: plain inside a `PlainNavigation` (an absolute address), Remix's `<Link>` elsewhere. */
export function ListLink({ to, ...props }: Omit<ComponentProps<"a">, "href"> & { to: string }) {
  return useContext(Plain) ? <a href={to} {...props} /> : <Link to={to} {...props} />;
}

/** A POST form: plain inside a `PlainNavigation` (an absolute action), Remix's `<Form>` elsewhere. */
export function ListForm({ action, ...props }: Omit<ComponentProps<"form">, "method" | "action" | "encType"> & { action: string }) {
  return useContext(Plain) ? <form method="post" action={action} {...props} /> : <Form method="post" action={action} {...props} />;
}
