// The entry point: everything else is in MergeCommand (ArgumentParser) and the SportsTimeMerge library.
MergeCommand.main()
