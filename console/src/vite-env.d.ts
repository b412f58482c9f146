/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The API's origin when it is not this page's (the development server); unset in the build. */
  readonly VITE_API_BASE?: string;
}
