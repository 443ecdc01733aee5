// The part of swagger-ui-dist's self-contained bundle the API reference uses (the package ships no types).
declare module "swagger-ui-dist/swagger-ui-es-bundle.js" {
  /** What a plugin gets: the bundle's own React and its component registry. */
  export interface SwaggerUISystem {
    React: {
      createElement(type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]): unknown;
    };
  }
  /** Props Swagger UI passes to a layout component (a mapped container). */
  export interface SwaggerUILayoutProps {
    getComponent(name: string, container?: boolean): unknown;
    specSelectors: {
      servers(): { size: number } | undefined;
      schemes(): { size: number } | undefined;
      securityDefinitions(): unknown;
      isSwagger2(): boolean;
      isOAS3(): boolean;
      isOAS31(): boolean;
      isOAS32(): boolean;
    };
  }
  type SwaggerUIPlugin = (system: SwaggerUISystem) => { components?: Record<string, (props: SwaggerUILayoutProps) => unknown> };
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
    plugins?: SwaggerUIPlugin[];
    /** The name of the component (from a plugin) that lays out the page. */
    layout?: string;
  }
  const SwaggerUIBundle: (options: SwaggerUIOptions) => unknown;
  export default SwaggerUIBundle;
}
