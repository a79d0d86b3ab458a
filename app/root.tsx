import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunction,
  useNavigation,
  useRouteLoaderData,
} from "@remix-run/react";
import { Link, useLinkNavigation } from "~/components/ui/Link";
import { useFocusFirstError } from "~/components/ui/useFocusFirstError";
import { useEffect, type ReactNode } from "react";
import { Footer } from "./components/Footer";
import { GeneralErrorBoundary } from "./components/GeneralErrorBoundary";
import { Header, type HeaderUser } from "./components/Header";
import { Toast } from "./components/Toast";
import { Spinner } from "./components/ui/Spinner";
import { isRole } from "./domain/roles";
import { restoreTypedBeforeHydration } from "./utils/typed-before-hydration";
import { countUnread } from "./models/notification.server";
import { getOptionalUser } from "./models/auth.server";
import { db } from "./services/db.server";
import { readFlash } from "./services/session.server";
import { paths } from "./utils/paths";
import stylesheet from "./tailwind.css";
import { useNonce } from "./utils/nonce";
import { pageMeta } from "./utils/meta";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () =>
  pageMeta(
    "CotizaHub · Cotizaciones B2B",
    "Marketplace de cotizaciones B2B: sube tus requerimientos y recibe cotizaciones verificadas en 24-48 horas.",
  );

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  const [unread, { value: toast, setCookie }] = await Promise.all([
    user ? countUnread(db, user.id) : Promise.resolve(0),
    readFlash(request, "toast"),
  ]);
  const headerUser: HeaderUser | null = user
    ? {
        firstName: user.first_name,
        lastName: user.last_name,
        email: user.email,
        role: isRole(user.role) ? user.role : "buyer",
      }
    : null;
  const headers = new Headers();
  if (setCookie) headers.append("Set-Cookie", setCookie);
  return data({ user: headerUser, unread, toast }, { headers });
}

export type RootLoaderData = Awaited<ReturnType<typeof loader>>["data"];

/**
 * A refused action (4xx) reloads the root too, which Remix skips by default: its toast is the
 * flash of the previous action, and «Éxito · Categoría creada» stayed above the refusal of the
 * next one. The flash has been read, so the reload clears it (and refreshes the bell).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  actionStatus,
  defaultShouldRevalidate,
}) => (actionStatus !== undefined && actionStatus >= 400) || defaultShouldRevalidate;

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="es">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function NavigationSpinner() {
  const navigation = useNavigation();
  if (navigation.state !== "loading") return null;
  return (
    <div className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-white/40">
      <Spinner />
    </div>
  );
}

export default function App() {
  const rootData = useRootData();
  useLinkNavigation();
  useFocusFirstError();
  // The root's effect runs once the whole page is hydrated.
  useEffect(() => restoreTypedBeforeHydration(), []);
  return (
    <>
      <a
        href="#contenido"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:bg-white focus:p-2"
      >
        Saltar al contenido
      </a>
      <Header user={rootData?.user ?? null} unread={rootData?.unread ?? 0} />
      {rootData?.toast ? <Toast toast={rootData.toast} /> : null}
      <main id="contenido" className="flex-1">
        <Outlet />
      </main>
      <Footer />
      <NavigationSpinner />
    </>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      unexpectedErrorHandler={(error) => {
        const status = isRouteErrorResponse(error) ? error.status : 500;
        // A refused request (400–499) carries its own Spanish explanation; only the rest is logged.
        const refusal =
          status === 405
            ? METHOD_REFUSAL
            : isRouteErrorResponse(error) && status < 500 && typeof error.data === "string"
              ? error.data
              : null;
        if (status >= 500) console.error(error);
        return <ErrorPage status={status} refusal={refusal} />;
      }}
    />
  );
}

/** A form sent to a page that takes none (Remix's own text is English and names the route). */
const METHOD_REFUSAL =
  "Esta página no recibe formularios. Vuelve a la página anterior y envíalo desde su botón.";

function ErrorPage({ status, refusal }: { status: number; refusal: string | null }) {
  const rootData = useRootData();
  const notFound = status === 404;
  return (
    <>
      <Header user={rootData?.user ?? null} unread={rootData?.unread ?? 0} />
      <main id="contenido" className="flex flex-1 items-center justify-center px-4 py-16">
        <div className="text-center">
          <p className="text-6xl font-extrabold text-brand-700">
            {notFound || refusal ? status : "Error"}
          </p>
          <h1 className="mt-4 text-2xl font-bold">
            {notFound
              ? "¡Ups! Página no encontrada"
              : refusal
                ? "No pudimos procesar el envío"
                : "Algo salió mal"}
          </h1>
          <p className="mt-2 text-slate-700">
            {notFound
              ? "La página que buscas no existe o fue movida."
              : (refusal ?? "Ocurrió un error inesperado. Por favor intenta de nuevo más tarde.")}
          </p>
          <Link to={paths.home()} className="btn-primary mt-6">
            Volver al inicio
          </Link>
        </div>
      </main>
      <Footer />
    </>
  );
}
