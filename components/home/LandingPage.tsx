import { Anchor, Button, Group, List, ListItem, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconBuildingBank, IconDatabase, IconStack2, IconTemplate } from "@tabler/icons-react";
import { SignedOutFrame } from "@/components/signin/SignedOutFrame";

const FEATURES = [
  { icon: IconDatabase, text: "Template sources: personal and server-wide marketplaces." },
  { icon: IconTemplate, text: "Templates: install, edit, check for updates and update." },
  { icon: IconBuildingBank, text: "Banks: create from a template, with per-bank policy documents." },
];

/** Signed out at `/`: what the product is, and the way in; in the sign-in page's frame. */
export function LandingPage() {
  return (
    <SignedOutFrame maxWidth={560}>
      <Stack gap="lg">
        <Group gap={10} wrap="nowrap">
          <IconStack2 size={30} aria-hidden />
          <Title order={1} size="h2">
            Bank Templates Console
          </Title>
        </Group>
        <Text c="dimmed">
          The admin console and extension API for agent-memory bank templates: register template marketplaces, browse and install bank
          templates, keep them up to date, write per-bank policies, and create memory banks from templates.
        </Text>
        <List spacing="sm" center>
          {FEATURES.map(({ icon: Icon, text }) => (
            <ListItem
              key={text}
              icon={
                <ThemeIcon variant="light" size="md" radius="xl" aria-hidden>
                  <Icon size={16} />
                </ThemeIcon>
              }
            >
              {text}
            </ListItem>
          ))}
        </List>
        <Button component="a" href="/signin" size="md" fullWidth>
          Sign in
        </Button>
        <Text size="xs" c="dimmed">
          Programs use the API with a bearer key; its reference is the <Anchor href="/ext/svc/openapi.json">OpenAPI document</Anchor>.
        </Text>
      </Stack>
    </SignedOutFrame>
  );
}
