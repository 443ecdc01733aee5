"use client";
import { Anchor, Paper, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { PageHeader } from "@/components/console/PageHeader";
import { ErrorState, LoadingState } from "@/components/console/states";
import { ApiProblem } from "@/lib/client/problem";

const OPENAPI_URL = "/ext/svc/openapi.json";

// Swagger UI is large and browser-only: its own chunk, never rendered on the server.
const SwaggerViewer = dynamic(() => import("./SwaggerViewer"), {
  ssr: false,
  loading: () => <LoadingState label="Loading the API reference viewer…" />,
});

async function fetchOpenApiDocument(): Promise<object> {
  const response = await fetch(OPENAPI_URL, { headers: { accept: "application/json" } });
  if (!response.ok) throw await ApiProblem.fromResponse(response);
  return (await response.json()) as object;
}

/** The API reference: the live OpenAPI 3.1 document of this server, rendered by Swagger UI. */
export function ApiReference() {
  const doc = useQuery({ queryKey: ["openapi-document"], queryFn: fetchOpenApiDocument, staleTime: Infinity });
  return (
    <>
      <PageHeader
        title="API reference"
        description={
          <>
            Every{" "}
            <Text span ff="monospace">
              /ext/svc
            </Text>{" "}
            endpoint. Programs send{" "}
            <Text span ff="monospace">
              Authorization: Bearer &lt;key&gt;
            </Text>
            ; the raw document is at <Anchor href={OPENAPI_URL}>{OPENAPI_URL}</Anchor>.
          </>
        }
      />
      {doc.isPending ? (
        <LoadingState label="Loading the OpenAPI document…" />
      ) : doc.isError ? (
        <ErrorState title="Could not load the OpenAPI document" error={doc.error} onRetry={() => doc.refetch()} />
      ) : (
        // Swagger UI follows the console's colour scheme (see SwaggerViewer).
        <Paper withBorder p="xs" data-testid="api-reference">
          <SwaggerViewer spec={doc.data} />
        </Paper>
      )}
    </>
  );
}
