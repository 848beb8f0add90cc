import { Form } from "@remix-run/react";

/**
 * Every call to order starts a fresh order: the wizard's one POST drops the current order and
 * opens step 1 at the top of a new page (DESIGN §4.9). Works without JavaScript.
 */
export function OrderButton({ children, secondary = false }: { children: React.ReactNode; secondary?: boolean }) {
  return (
    <Form method="post" action="/order/new" reloadDocument className="order-form">
      <button type="submit" className={secondary ? "button button-secondary" : "button"}>
        {children}
      </button>
    </Form>
  );
}
