import { useNavigate } from "@remix-run/react";
import { useEffect, type AnchorHTMLAttributes } from "react";

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  /** An absolute path in the app, with its query if any ("/admin/quotes?status=paid"). */
  to: string;
  /** Keep the scroll position when followed with JavaScript (a filter that stays in place). */
  preventScrollReset?: boolean;
};

/**
 * A link to a page of the app: a plain `<a>` with the markup Remix's `<Link>` renders
 * (`data-discover` lets Remix fetch the target's route ahead of the click), followed in the browser
 * by `useLinkNavigation`. Remix's `<Link>` costs the server about 10 µs each to render (path
 * resolution and navigation hooks), and list pages draw 40 to 100 of them; this costs what an `<a>`
 * costs. Without JavaScript, or before hydration, it is an ordinary link.
 */
export function Link({ to, preventScrollReset, ...props }: LinkProps) {
  return (
    <a
      {...props}
      data-discover="true"
      data-app-link={preventScrollReset ? "keep-scroll" : ""}
      href={to}
    />
  );
}

/**
 * Follows clicks on `Link`s with the client router, as Remix's `<Link>` does: a plain left click on
 * a same-window, same-origin link; a link to the current address replaces it in the history.
 * Mounted once, by the root layout.
 */
export function useLinkNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    function follow(event: MouseEvent) {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const anchor = event.target instanceof Element ? event.target.closest("a") : null;
      if (!anchor?.hasAttribute("data-app-link") || anchor.origin !== window.location.origin)
        return;
      if ((anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return;
      event.preventDefault();
      const to = anchor.pathname + anchor.search + anchor.hash;
      const here = window.location.pathname + window.location.search + window.location.hash;
      navigate(to, {
        replace: to === here,
        preventScrollReset: anchor.getAttribute("data-app-link") === "keep-scroll",
      });
    }
    // On window, after React's own listener on the document: a click a component already
    // handled (defaultPrevented) is left alone.
    window.addEventListener("click", follow);
    return () => window.removeEventListener("click", follow);
  }, [navigate]);
}
