/// <reference types="@remix-run/dev" />
import "@remix-run/node";

// Single fetch: loaders/actions return data directly, and useLoaderData infers it.
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}
