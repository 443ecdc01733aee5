import { Anchor, Button, Container, List, ListItem, Stack, Text, Title } from "@mantine/core";

// The landing page: what the product is, and the way in.
export default function LandingPage() {
  return (
    <Container component="main" size="sm" py="xl">
      <Stack gap="md">
        <Title order={1}>Bank Templates Console</Title>
        <Text size="lg">
          The admin console and extension API for agent-memory bank templates: register template marketplaces, browse and install bank
          templates, keep them up to date, write per-bank policies, and create memory banks from templates.
        </Text>
        <List>
          <ListItem>Template sources: personal and server-wide marketplaces.</ListItem>
          <ListItem>Templates: install, edit, check for updates and update.</ListItem>
          <ListItem>Banks: create from a template, with per-bank policy documents.</ListItem>
        </List>
        <Button component="a" href="/signin" w="fit-content">
          Sign in
        </Button>
        <Text size="sm" c="dimmed">
          Programs use the API with a bearer key; its reference is the <Anchor href="/ext/svc/openapi.json">OpenAPI document</Anchor>.
        </Text>
      </Stack>
    </Container>
  );
}
