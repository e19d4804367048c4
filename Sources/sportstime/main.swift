// The runner's entry point; the commands live in SportsTimeCommand.swift, the work in SportsTimeRunner.
SportsTimeCommand.main()
