import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirectIfSignedIn } from "~/services/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request);
  return null;
}

export default function Landing() {
  return <h1 className="p-8 text-3xl font-bold">CotizaHub</h1>;
}
