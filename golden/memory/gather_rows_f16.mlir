entry @gather_rows_f16(%arg0: tile<ptr<f16>>, %arg1: tile<ptr<i32>>, %arg2: tile<ptr<f16>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [64], strides = [1] : tensor_view<64xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(16), padding_value = zero, tensor_view<64xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(16), padding_value = zero, tensor_view<64xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token
  %9 = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %10 = make_tensor_view %9, shape = [256, 64], strides = [64, 1] : tensor_view<256x64xf16, strides=[64,1]>
  %11 = make_gather_scatter_view %10 : gather_scatter_view<tile=(16x64), padding_value = zero, tensor_view<256x64xf16, strides=[64,1]>, sparse_dim=0>
  %12 = constant <i32: 0> : tile<i32>
  %13, %14 = load_view_tko weak %11[%7, %12] token = %8 : gather_scatter_view<tile=(16x64), padding_value = zero, tensor_view<256x64xf16, strides=[64,1]>, sparse_dim=0>, tile<16xi32>, tile<i32> -> tile<16x64xf16>, token
  %15 = assume div_by<16>, %arg2 : tile<ptr<f16>>
  %16 = make_tensor_view %15, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf16, strides=[64,1]>
  %17 = make_partition_view %16 : partition_view<tile=(16x64), padding_value = zero, tensor_view<64x64xf16, strides=[64,1]>>
  %18 = store_view_tko weak %13, %17[%1, %2] token = %14 : tile<16x64xf16>, partition_view<tile=(16x64), padding_value = zero, tensor_view<64x64xf16, strides=[64,1]>>, tile<i32> -> token
  return
}
