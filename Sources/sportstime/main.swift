// `sportstime`: the command is RunnerCommand (Sources/SportsTimeCommand/Runner/), the work is in SportsTimeRunner.
import SportsTimeCommand

RunnerCommand.main()
