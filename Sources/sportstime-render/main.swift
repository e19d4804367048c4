// `sportstime-render`: the command is RenderCommand (Sources/SportsTimeCommand/Render/), the work is in SportsTimeRender.
import SportsTimeCommand

RenderCommand.main()
