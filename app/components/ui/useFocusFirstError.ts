import { useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * With JavaScript, a form the server refused comes back with its messages beside the fields, but
 * focus stayed on the button just pressed. Once a POST navigation settles, the first field marked
 * invalid (`aria-invalid`, set by the Field components from the server's errors) takes the focus,
 * as it would after a browser's own validation; the page scrolls it into view. Without
 * JavaScript the refused page is a new page and the browser starts at its top.
 */
export function useFocusFirstError() {
  const navigation = useNavigation();
  const submitted = useRef(false);
  useEffect(() => {
    if (navigation.state !== "idle") {
      if (navigation.formMethod?.toUpperCase() === "POST") submitted.current = true;
      return;
    }
    if (!submitted.current) return;
    submitted.current = false;
    document.querySelector<HTMLElement>('#contenido [aria-invalid="true"]')?.focus();
  }, [navigation.state, navigation.formMethod]);
}
