// `sportstime-merge`: the command is MergeCommand (Sources/SportsTimeCommand/Merge/), the work is in SportsTimeMerge.
import SportsTimeCommand

MergeCommand.main()
