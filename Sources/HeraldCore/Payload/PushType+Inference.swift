extension PushType {
    /// The push type a payload calls for when none is given: `liveactivity` when it has Live
    /// Activity keys (`event`, `timestamp`, `content-state`…), `background` when it only has
    /// `content-available: 1`, `mdm` for `{"mdm": …}` and `fileprovider` for
    /// `{"container-identifier": …}` without `aps`, otherwise `alert`.
    public static func inferred(from payload: Payload) -> PushType {
        if payload.json["aps"] == nil {
            if payload.json[mdmKey] != nil { return .mdm }
            if payload.json[containerIdentifierKey] != nil { return .fileProvider }
        }
        let aps = payload.aps
        if aps.json.keys.contains(where: APSKey.liveActivity.contains) { return .liveActivity }
        let visible = aps.json[APSKey.alert] != nil || aps.json[APSKey.sound] != nil || aps.json[APSKey.badge] != nil
        if aps.json[APSKey.contentAvailable] != nil && !visible { return .background }
        if aps.json[APSKey.contentChanged] != nil && !visible { return .widgets }
        return .alert
    }
}
