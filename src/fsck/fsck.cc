// Placeholder until the fsck checks land.
