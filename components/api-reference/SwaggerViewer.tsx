"use client";
// Loaded only in the browser (see ApiReference). swagger-ui-dist's bundle carries its own
// React and all of Swagger UI's dependencies prebuilt: swagger-ui-react's unbundled
// dependency tree (apidom) loses side-effect registrations under Turbopack and fails on
// OpenAPI 3.1 documents.
import { useEffect, useRef } from "react";
import SwaggerUIBundle from "swagger-ui-dist/swagger-ui-es-bundle.js";
import "swagger-ui-dist/swagger-ui.css";

/**
 * Swagger UI over the OpenAPI document. "Try it out" sends same-origin requests, which the
 * API authenticates by the console session, so calls run as the signed-in user.
 */
export default function SwaggerViewer({ spec }: { spec: object }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    SwaggerUIBundle({
      domNode: node,
      spec,
      docExpansion: "list",
      defaultModelsExpandDepth: 0,
      displayRequestDuration: true,
      deepLinking: false,
      queryConfigEnabled: false,
      // No calls to the public validator service: the console works offline.
      validatorUrl: null,
    });
    return () => {
      node.replaceChildren();
    };
  }, [spec]);
  return <div ref={container} />;
}
