// The part of swagger-ui-dist's self-contained bundle the API reference uses (the package ships no types).
declare module "swagger-ui-dist/swagger-ui-es-bundle.js" {
  interface SwaggerUIOptions {
    domNode: HTMLElement;
    spec?: object;
    url?: string;
    docExpansion?: "list" | "full" | "none";
    defaultModelsExpandDepth?: number;
    displayRequestDuration?: boolean;
    deepLinking?: boolean;
    queryConfigEnabled?: boolean;
    validatorUrl?: string | null;
    tryItOutEnabled?: boolean;
  }
  const SwaggerUIBundle: (options: SwaggerUIOptions) => unknown;
  export default SwaggerUIBundle;
}
