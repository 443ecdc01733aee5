import { Anchor, Container, Stack, Text, Title } from "@mantine/core";

// Unknown pages (the API's unknown paths answer problem+json instead).
export default function NotFound() {
  return (
    <Container size="sm" py="xl">
      <Stack gap="md">
        <Title order={1}>Page not found</Title>
        <Text>There is no page at this address.</Text>
        <Anchor href="/sources">Go to the console</Anchor>
      </Stack>
    </Container>
  );
}
