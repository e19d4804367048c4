// The entry point: everything happens in `NormalizeCommand` and the SportsTimeNormalize library.
NormalizeCommand.main()
