global  @weights alignment = 16 <f32: "0x000080BFF0F77BBFE0EF77BFD0E773BFBFDF6FBFAFD76BBF9FCF67BF8FC763BF7FBF5FBF6FB75BBF5FAF57BF4FA753BF3E9F4FBF2E974BBF1E8F47BF0E8743BFFE7E3FBFEE763BBFDE6E37BFCE6633BFBD5E2FBFAD562BBF9D4E27BF8D4623BF7D3E1FBF6D361BBF5D2E17BF4D2613BF3C1E0FBF2C160BBF1C0E07BF0C0603BFF8FBFDBED8EBF5BEB7DBEDBE97CBE5BE77BBDDBE57ABD5BE369BCDBE168BC5BEF67ABDBED66AB5BEB55AADBE954AA5BE753A9DBE552A95BE341A8DBE140A85BEE8F379BEA7D369BE67B359BE269349BEE67239BEA55229BE653219BE241209BEC8E3F1BD47A3D1BDC662B1BD452291BD87C361BD854221BD0683C1BC040201BC0402013C0683C13C8542213D87C3613D4522913DC662B13D47A3D13DC8E3F13D2412093E6532193EA552293EE672393E2693493E67B3593EA7D3693EE8F3793E140A853E341A8D3E552A953E753A9D3E954AA53EB55AAD3ED66AB53EF67ABD3E168BC53E369BCD3E57ABD53E77BBDD3E97CBE53EB7DBED3ED8EBF53EF8FBFD3E0C06033F1C0E073F2C160B3F3C1E0F3F4D26133F5D2E173F6D361B3F7D3E1F3F8D46233F9D4E273FAD562B3FBD5E2F3FCE66333FDE6E373FEE763B3FFE7E3F3F0E87433F1E8F473F2E974B3F3E9F4F3F4FA7533F5FAF573F6FB75B3F7FBF5F3F8FC7633F9FCF673FAFD76B3FBFDF6F3FD0E7733FE0EF773FF0F77B3F0000803F"> : tile<128xf32>
entry @global_weights_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %9 = get_global @weights : tile<ptr<f32>>
  %10 = reshape %9 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %11 = broadcast %10 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %12 = constant <i32: 0> : tile<128xi32>
  %13 = iota : tile<128xi32>
  %14 = addi %12, %13 : tile<128xi32>
  %15 = offset %11, %14 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
  %16 = ptr_to_int %15 : tile<128xptr<f32>> -> tile<128xi64>
  %17 = ptr_to_int %9 : tile<ptr<f32>> -> tile<i64>
  %18 = reshape %17 : tile<i64> -> tile<1xi64>
  %19 = broadcast %18 : tile<1xi64> -> tile<128xi64>
  %20 = subi %16, %19 : tile<128xi64>
  %21 = constant <i64: 0> : tile<128xi64>
  %22 = cmpi greater_than_or_equal %20, %21, signed : tile<128xi64> -> tile<128xi1>
  %23 = constant <i64: 512> : tile<i64>
  %24 = constant <i64: 4> : tile<i64>
  %25 = subi %23, %24 : tile<i64>
  %26 = reshape %25 : tile<i64> -> tile<1xi64>
  %27 = broadcast %26 : tile<1xi64> -> tile<128xi64>
  %28 = cmpi less_than_or_equal %20, %27, signed : tile<128xi64> -> tile<128xi1>
  %29 = andi %22, %28 : tile<128xi1>
  assert %29, "kernel `global_weights_f32`: `load_ptr_tko`: a lane addresses memory outside @weights (at pointers.py:260)" : tile<128xi1>
  %30, %31 = load_ptr_tko weak %15 token=%8 : tile<128xptr<f32>> -> tile<128xf32>, token
  %32 = mulf %7, %30  : tile<128xf32>
  %33 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %34 = make_tensor_view %33, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %35 = make_partition_view %34 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %36 = store_view_tko weak %32, %35[%1] token = %31 : tile<128xf32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> token
  return
}
