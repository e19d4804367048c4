// `sportstime-normalize`: the command is NormalizeCommand (Sources/SportsTimeCommand/Normalize/), the work is in SportsTimeNormalize.
import SportsTimeCommand

NormalizeCommand.main()
