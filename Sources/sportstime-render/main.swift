import Foundation
FileHandle.standardError.write(Data("sportstime-render: not built yet\n".utf8))
exit(1)
