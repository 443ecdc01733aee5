// A proxy in front of the server (a load balancer, a reverse proxy) answers 502, 503 or 504 for
// it while the server is down, restarting or slow: that is no answer from the server, and the
// request may be sent again once it answers. The server's own answers of those statuses carry
// its content type (problem+json from the API, the router's payload from pages), which no
// proxy's error page does.

/** Whether `response` came from a proxy standing in for the server, given the server's content type for this request. */
export function isGatewayAnswer(response: Response, serverContentType: string): boolean {
  // 502 Bad Gateway, 503 Service Unavailable, 504 Gateway Timeout.
  return response.status >= 502 && response.status <= 504 && !response.headers.get("content-type")?.startsWith(serverContentType);
}
