"use client";
// Loaded only in the browser (see ApiReference). swagger-ui-dist's bundle carries its own
// React and all of Swagger UI's dependencies prebuilt: swagger-ui-react's unbundled
// dependency tree (apidom) loses side-effect registrations under Turbopack and fails on
// OpenAPI 3.1 documents.
import { useComputedColorScheme } from "@mantine/core";
import { useEffect, useRef } from "react";
import SwaggerUIBundle, { type SwaggerUILayoutProps, type SwaggerUISystem } from "swagger-ui-dist/swagger-ui-es-bundle.js";
import "swagger-ui-dist/swagger-ui.css";
import "./swagger-console.css";

/**
 * Swagger UI's page layout without its `<main>`: the console page already is the one main
 * landmark, and a second one (nested, at that) confuses landmark navigation. Built with the
 * bundle's own React from Swagger UI's registered parts; no loading or failure states, since
 * the document is passed in already loaded.
 */
function consoleLayoutPlugin({ React }: SwaggerUISystem) {
  const h = React.createElement;
  function ConsoleLayout({ getComponent, specSelectors: spec }: SwaggerUILayoutProps) {
    const [SvgAssets, VersionPragmaFilter, Errors, Row, Col] = ["SvgAssets", "VersionPragmaFilter", "errors", "Row", "Col"].map((name) =>
      getComponent(name, name === "errors"),
    );
    const [Info, Servers, Schemes, Authorize, Filter, Operations, Webhooks, Models] = [
      "InfoContainer",
      "ServersContainer",
      "SchemesContainer",
      "AuthorizeBtnContainer",
      "FilterContainer",
      "operations",
      "Webhooks",
      "Models",
    ].map((name) => getComponent(name, true));
    const hasServers = Boolean(spec.servers()?.size);
    const hasSchemes = Boolean(spec.schemes()?.size);
    const hasAuth = Boolean(spec.securityDefinitions());
    const fullRow = (child: unknown, className?: string) => h(Row, { className }, h(Col, { mobile: 12, desktop: 12 }, child));
    return h(
      "div",
      { className: "swagger-ui" },
      h(SvgAssets),
      h(
        VersionPragmaFilter,
        {
          isSwagger2: spec.isSwagger2(),
          isOAS3: spec.isOAS3(),
          isOAS31: spec.isOAS31(),
          isOAS32: spec.isOAS32(),
          alsoShow: h(Errors),
        },
        h(Errors),
        h(Row, { className: "information-container" }, h(Col, { mobile: 12 }, h(Info))),
        hasServers || hasSchemes || hasAuth
          ? h(
              "div",
              { className: "scheme-container" },
              h(
                Col,
                { className: "schemes wrapper", mobile: 12 },
                hasServers || hasSchemes
                  ? h("div", { className: "schemes-server-container" }, hasServers ? h(Servers) : null, hasSchemes ? h(Schemes) : null)
                  : null,
                hasAuth ? h(Authorize) : null,
              ),
            )
          : null,
        h(Filter),
        h(
          "div",
          { id: "operations" },
          fullRow(h(Operations)),
          spec.isOAS31() || spec.isOAS32() ? fullRow(h(Webhooks), "webhooks-container") : null,
          fullRow(h(Models)),
        ),
      ),
    );
  }
  return { components: { ConsoleLayout } };
}

/** Names Swagger UI's form controls that it leaves unnamed (its server picker). */
function nameControls(root: HTMLElement) {
  for (const select of root.querySelectorAll<HTMLSelectElement>("select#servers:not([aria-label])")) {
    select.setAttribute("aria-label", "Server");
  }
}

/**
 * Swagger UI over the OpenAPI document. "Try it out" sends same-origin requests, which the
 * API authenticates by the console session, so calls run as the signed-in user.
 */
export default function SwaggerViewer({ spec }: { spec: object }) {
  const container = useRef<HTMLDivElement>(null);
  const scheme = useComputedColorScheme("light");

  // Swagger UI's own dark theme hangs off a class on <html>: set while this page shows it.
  useEffect(() => {
    const html = document.documentElement;
    html.classList.toggle("dark-mode", scheme === "dark");
    return () => html.classList.remove("dark-mode");
  }, [scheme]);

  useEffect(() => {
    const node = container.current;
    if (!node) return;
    SwaggerUIBundle({
      domNode: node,
      spec,
      plugins: [consoleLayoutPlugin],
      layout: "ConsoleLayout",
      docExpansion: "list",
      defaultModelsExpandDepth: 0,
      displayRequestDuration: true,
      deepLinking: false,
      queryConfigEnabled: false,
      // No calls to the public validator service: the console works offline.
      validatorUrl: null,
    });
    // Swagger UI renders (and re-renders) on its own schedule: name its controls as they appear.
    nameControls(node);
    const observer = new MutationObserver(() => nameControls(node));
    observer.observe(node, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      node.replaceChildren();
    };
  }, [spec]);
  return <div ref={container} className="console-swagger" />;
}
