/// Maps a frame's rows from file order to display order.
///
/// Interlaced GIFs store rows in four passes: every 8th row from 0, every 8th from 4, every 4th from 2,
/// then every 2nd from 1.
struct GIFInterlace {
    private let height: Int
    private let isInterlaced: Bool
    /// The file row where passes 2, 3 and 4 start.
    private let pass2, pass3, pass4: Int

    init(height: Int, isInterlaced: Bool) {
        self.height = height
        self.isInterlaced = isInterlaced
        pass2 = (height + 7) / 8
        pass3 = pass2 + (height + 3) / 8
        pass4 = pass3 + (height + 1) / 4
    }

    /// The display row of the `fileRow`-th row in the file.
    func displayRow(_ fileRow: Int) -> Int {
        guard isInterlaced else { return fileRow }
        if fileRow < pass2 { return fileRow * 8 }
        if fileRow < pass3 { return 4 + (fileRow - pass2) * 8 }
        if fileRow < pass4 { return 2 + (fileRow - pass3) * 4 }
        return 1 + (fileRow - pass4) * 2
    }
}
