"""The Discord side of memorybot, and its command line. Importing it does not load discord."""
